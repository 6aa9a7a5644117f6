/**
 * Saves data the app fetched itself (with the in-memory access token) as a file: a plain link could not
 * send the token.
 */
export function saveFile(data: BlobPart, type: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  // the click starts the download synchronously; revoking later keeps slow browsers safe
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}
