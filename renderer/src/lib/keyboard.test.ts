import { afterEach, describe, expect, test } from 'vitest';
import { detailPart, keyLabel, keyPlace, sendsForm, shortcutFor, type KeyPlace } from './keyboard.ts';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

const ALL_KEYS = ['j', 'ArrowDown', 'k', 'ArrowUp', 'Enter', '/', 'r', 'e', 's', 'x', 'p', '?', 'Escape'];
const actionsIn = (place: KeyPlace) => ALL_KEYS.map((k) => shortcutFor(key(k), place));

/** Builds the page a test needs and answers the element marked `data-t`. */
const page = (html: string): HTMLElement => {
  document.body.innerHTML = html;
  return document.querySelector<HTMLElement>('[data-t]')!;
};

describe('keyboard shortcuts', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  test('on the page and in the list, each key of the list maps to its action; the arrows move like j and k', () => {
    const all = ['next', 'next', 'previous', 'previous', 'open', 'search', 'replay', 'edit', 'share', 'explain'];
    expect(actionsIn('page')).toEqual([...all, 'pin', 'help', 'close']);
    expect(actionsIn('list')).toEqual([...all, 'pin', 'help', 'close']);
    expect(shortcutFor(key('q'), 'page')).toBe(null);
    expect(shortcutFor(key('J'), 'page')).toBe(null);
    expect(shortcutFor(key('ArrowLeft'), 'list')).toBe(null);
  });

  test('typing in a field or a dialog is never a shortcut, except Esc; nor is a key with a modifier', () => {
    const onlyEsc = [...ALL_KEYS.slice(0, -1).map(() => null), 'close'];
    expect(actionsIn('field')).toEqual(onlyEsc);
    expect(actionsIn('dialog')).toEqual(onlyEsc);
    expect(shortcutFor(key('r', { ctrlKey: true }), 'page')).toBe(null);
    expect(shortcutFor(key('s', { metaKey: true }), 'list')).toBe(null);
    expect(shortcutFor(key('p', { altKey: true }), 'page')).toBe(null);
  });

  test('on another control, letters are shortcuts but Enter and the arrows are the control’s own', () => {
    expect(actionsIn('control')).toEqual([
      'next',
      null,
      'previous',
      null,
      null,
      'search',
      'replay',
      'edit',
      'share',
      'explain',
      'pin',
      'help',
      'close',
    ]);
  });

  test('a text box, a select, an editable region or a textbox role is a field; tick boxes and buttons are not', () => {
    for (const html of [
      '<input data-t>',
      '<input data-t type="url">',
      '<input data-t type="search">',
      '<input data-t type="number">',
      '<textarea data-t></textarea>',
      '<select data-t><option>a</option></select>',
      '<div contenteditable="true"><p data-t>text</p></div>',
      '<div role="textbox"><span data-t>text</span></div>',
      '<div data-t role="searchbox" tabindex="0"></div>',
      '<div data-t role="combobox" tabindex="0"></div>',
    ]) {
      expect([html, keyPlace(page(html))]).toEqual([html, 'field']);
    }
    for (const html of ['<input data-t type="checkbox">', '<input data-t type="radio">', '<button data-t>b</button>']) {
      expect([html, keyPlace(page(html))]).toEqual([html, 'control']);
    }
  });

  test('the list’s rows and what holds the list are the list; the body is the page; a dialog is a dialog', () => {
    const list =
      '<div role="list" aria-label="Deliveries"><div role="listitem"><input type="checkbox" class="row-check"><button class="row">r</button></div></div>';
    page(`<div class="scroller" tabindex="-1">${list}</div><dialog open><button>Close</button></dialog>`);
    expect(keyPlace(document.querySelector('.row'))).toBe('list');
    expect(keyPlace(document.querySelector('.scroller'))).toBe('list');
    expect(keyPlace(document.querySelector('.row-check'))).toBe('control');
    expect(keyPlace(document.querySelector('dialog button'))).toBe('dialog');
    expect(keyPlace(document.body)).toBe('page');
    expect(keyPlace(null)).toBe('page');
  });

  test('the detail pane and its panels are told apart', () => {
    page(
      '<section aria-label="Delivery" tabindex="-1"><button id="a">Replay</button><section class="panel"><input id="u"></section></section><input id="s">',
    );
    expect(detailPart(document.getElementById('u'))).toBe('panel');
    expect(detailPart(document.getElementById('a'))).toBe('pane');
    expect(detailPart(document.querySelector('[aria-label="Delivery"]'))).toBe('pane');
    expect(detailPart(document.getElementById('s'))).toBe(null);
    expect(detailPart(null)).toBe(null);
  });

  test('Enter sends from a one-line field, Ctrl/Cmd+Enter from anywhere (a multi-line box too)', () => {
    const input = page('<form><input data-t type="url"></form>');
    expect(sendsForm(key('Enter'), input)).toBe(true);
    expect(sendsForm(key('a'), input)).toBe(false);
    expect(sendsForm(key('Enter', { altKey: true }), input)).toBe(false);
    const textarea = page('<form><textarea data-t></textarea></form>');
    expect(sendsForm(key('Enter'), textarea)).toBe(false);
    expect(sendsForm(key('Enter', { ctrlKey: true }), textarea)).toBe(true);
    expect(sendsForm(key('Enter', { metaKey: true }), textarea)).toBe(true);
    for (const html of ['<input data-t type="checkbox">', '<select data-t></select>', '<button data-t>b</button>']) {
      expect([html, sendsForm(key('Enter'), page(html))]).toEqual([html, false]);
    }
  });

  test('keys are named as printed on the keyboard', () => {
    expect(['j', 'ArrowDown', 'ArrowUp', 'Escape', ' ', 'Enter'].map(keyLabel)).toEqual([
      'j',
      '↓',
      '↑',
      'Esc',
      'Space',
      'Enter',
    ]);
  });
});
