import { randomUUID } from 'node:crypto';
import sharp from 'sharp';

/** A multipart/form-data body with these fields and files, with the session. */
export function multipartForm(fields: Record<string, string>, files: { field: string; content: Buffer; filename?: string; type?: string }[], cookie: string) {
  const boundary = `----shop${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of files) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename ?? 'nails.png'}"\r\nContent-Type: ${file.type ?? 'image/png'}\r\n\r\n`;
    parts.push(Buffer.from(head), file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie } };
}

/** A multipart/form-data body, as the admin's product form sends it, with the admin's session. */
export const productForm = (fields: Record<string, string>, image: Buffer | undefined, cookie: string) => multipartForm(fields, image ? [{ field: 'image', content: image }] : [], cookie);

export const pngImage = (red = 200) => sharp({ create: { width: 400, height: 400, channels: 3, background: { r: red, g: 120, b: 170 } } }).png().toBuffer();

