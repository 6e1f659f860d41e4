/**
 * A log's headers as the embedded store keeps them, over `logs l`: their JSON is in the
 * blob files just before the body (one spilled value, written by the logs repository's
 * insert; the logs_headers_spilled migration), or, for logs stored before that step, in
 * the row's `raw_headers`. Read by the store's worker (`blob_value`), so a list page or a
 * search's candidates never carry them through the database's memory. Measured at 100,000
 * deliveries: 246 of a row's 553 bytes, about 25 MB of the database that sql.js holds in
 * memory and each checkpoint copies.
 */
export const STORED_HEADERS = 'COALESCE(CAST(blob_value(l.headers_at, l.headers_length) AS TEXT), l.raw_headers)';
