/**
 * "3 new deliveries": shown at the top of the list while it is scrolled down and
 * deliveries arrived above the rows being read (which stay in place). Clicking it
 * scrolls to them; it does not resume "Follow newest", which would open the newest
 * in place of the delivery being read.
 */
export function NewArrivalsBar({ count, onShow }: { count: number; onShow: () => void }) {
  if (count === 0) return null;
  return (
    <div className="new-arrivals">
      <button type="button" onClick={onShow}>
        <span aria-hidden="true">↑ </span>
        {count} new {count === 1 ? 'delivery' : 'deliveries'}
      </button>
    </div>
  );
}
