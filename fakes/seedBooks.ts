import { z } from 'zod';

/**
 * The market maker's ladder both fakes put on their books when seeded (docs/kalshi-fake.md and
 * docs/polymarket-fake.md, "Seeded books and the market maker"): `levels` prices on each side,
 * `levelSpacing` apart and from the mid to the touch, `baseSize` at the touch and
 * `sizeIncrement` more at each level further out. Each venue's market maker turns a level into
 * its own prices (its ticks) and orders.
 */
export interface SeedBooksOptions {
  /** Price levels on each side. Default 5. */
  readonly levels?: number;
  /** Distance between levels and from the mid to the touch, in dollars. Default "0.01". */
  readonly levelSpacing?: string;
  /** Contracts (shares) at the best level. Default 100. */
  readonly baseSize?: number;
  /** Extra contracts per level further from the mid. Default 100 (so 100, 200, ... 500). */
  readonly sizeIncrement?: number;
}

const DEFAULT_SEED_BOOKS: Required<SeedBooksOptions> = Object.freeze({ levels: 5, levelSpacing: '0.01', baseSize: 100, sizeIncrement: 100 });

/** One level of the ladder: 1 is the touch. */
export interface LadderLevel {
  readonly level: number;
  readonly size: number;
}

/** The ladder's levels with their sizes, and the spacing between them, options over the defaults. */
export function ladderLevels(options: SeedBooksOptions = {}): { levelSpacing: string; levels: LadderLevel[] } {
  const { levels, levelSpacing, baseSize, sizeIncrement } = { ...DEFAULT_SEED_BOOKS, ...options };
  return { levelSpacing, levels: Array.from({ length: levels }, (_, i) => ({ level: i + 1, size: baseSize + i * sizeIncrement })) };
}

const seedBody = z.object({
  levels: z.number().int().min(1).max(50).optional(),
  level_spacing: z.string().regex(/^0\.[0-9]{1,4}$/).refine((value) => Number(value) > 0, 'must be above 0').optional(),
  base_size: z.number().int().min(1).max(1_000_000).optional(),
  size_increment: z.number().int().min(0).max(1_000_000).optional(),
});

/** `POST /_fake/books/seed {levels?, level_spacing?, base_size?, size_increment?}` -> the options, or what is wrong with the body. */
export function seedBooksOptionsFrom(body: Record<string, unknown>): SeedBooksOptions | string {
  const parsed = seedBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${issue.path.join('.') || 'body'}: ${issue.message}`;
  }
  const { levels, level_spacing: levelSpacing, base_size: baseSize, size_increment: sizeIncrement } = parsed.data;
  return Object.fromEntries(Object.entries({ levels, levelSpacing, baseSize, sizeIncrement }).filter(([, value]) => value !== undefined));
}
