/** Saves bytes as a file through a temporary object URL, revoked once the browser has taken the download. */
export function downloadBytes(bytes: Uint8Array<ArrayBuffer>, filename: string, contentType: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type: contentType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
