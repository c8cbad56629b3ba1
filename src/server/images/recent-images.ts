import type { ImageVariant } from './image-store.js';

/** Room for every width of a few hundred product photos. */
const MAX_BYTES = 24 * 1024 * 1024;
/** How long another process may go on serving a photo that an admin removed here. */
const MAX_AGE_MS = 10 * 60 * 1000;

/**
 * The image variants served lately, kept in memory so that the photos every visitor sees cost a
 * lookup instead of a file or database read and a hash. A key never names other pixels, so a copy is
 * never wrong; only a removed photo lingers, here until `forget`, elsewhere for MAX_AGE_MS at most.
 */
export class RecentImages {
  private bytes = 0;
  /** In the order of last use, so that the first is the one to drop. */
  private readonly variants = new Map<string, { variant: ImageVariant; storedAt: number }>();

  constructor(
    private readonly maxBytes = MAX_BYTES,
    private readonly maxAgeMs = MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, width: number): ImageVariant | undefined {
    const name = variantName(key, width);
    const entry = this.variants.get(name);
    if (!entry) return undefined;
    this.drop(name);
    if (this.now() - entry.storedAt > this.maxAgeMs) return undefined;
    this.variants.set(name, entry);
    this.bytes += entry.variant.bytes.length;
    return entry.variant;
  }

  set(key: string, width: number, variant: ImageVariant): void {
    if (variant.bytes.length > this.maxBytes) return;
    const name = variantName(key, width);
    this.drop(name);
    this.variants.set(name, { variant, storedAt: this.now() });
    this.bytes += variant.bytes.length;
    for (const oldest of this.variants.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  /** Drops every width of an image that was removed. */
  forget(key: string): void {
    for (const name of [...this.variants.keys()]) if (name.startsWith(`${key} `)) this.drop(name);
  }

  private drop(name: string): void {
    const entry = this.variants.get(name);
    if (!entry) return;
    this.variants.delete(name);
    this.bytes -= entry.variant.bytes.length;
  }
}

const variantName = (key: string, width: number) => `${key} ${width}`;
