import { Component, type ReactNode } from 'react';
import { SenderText } from './sender-text.tsx';

interface Props {
  /** What failed, as the user knows it: "The deliveries", "The body". */
  what: string;
  /** The class of the element the fallback stands in for, so it keeps its place in the layout. */
  className?: string;
  /** When this changes (another delivery opened), the view is tried again by itself. */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

/**
 * Stands in for one pane (or the body) when drawing it throws: its error, in an
 * alert, with a way to try again, while the rest of the inspector keeps working.
 * A class, because only a class component can catch what its children throw.
 */
export class ViewBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <div className={`${this.props.className ?? ''} view-failed`.trim()} role="alert">
        <p>
          <strong>{this.props.what} could not be shown.</strong> The rest of Hookscope still works.
        </p>
        <p className="view-failed-error">
          {/* A parser's message can quote the body a sender chose. */}
          <code>
            <SenderText text={error.message} />
          </code>
        </p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
