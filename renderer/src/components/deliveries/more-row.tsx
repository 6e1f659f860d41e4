/** The row after the last one loaded while the engine has more: loading, or why not and a retry. */
export function MoreRow({ loading, failed, onRetry }: { loading: boolean; failed: boolean; onRetry: () => void }) {
  if (failed) {
    return (
      <div className="more-row">
        Loading more deliveries failed.{' '}
        <button type="button" className="secondary tiny" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <div className="more-row" role="status">
      {loading ? 'Loading more…' : ''}
    </div>
  );
}
