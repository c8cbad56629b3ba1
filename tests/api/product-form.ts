import { randomUUID } from 'node:crypto';
import sharp from 'sharp';

/** A multipart/form-data body, as the admin's product form sends it, with the admin's session. */
export function productForm(fields: Record<string, string>, image: Buffer | undefined, cookie: string) {
  const boundary = `----shop${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (image) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="nails.png"\r\nContent-Type: image/png\r\n\r\n`), image, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie } };
}

export const pngImage = (red = 200) => sharp({ create: { width: 400, height: 400, channels: 3, background: { r: red, g: 120, b: 170 } } }).png().toBuffer();

