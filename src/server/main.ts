import v8 from 'node:v8';

/*
 * Memory: two V8 settings, given before any module is loaded (V8 reads them when it compiles the
 * WebAssembly and at each garbage collection). Measured with `npm run bench` on PGlite:
 * - --no-liftoff: PGlite's PostgreSQL is 9 MB of WebAssembly. V8 compiles each function on its first
 *   call with its quick baseline compiler (Liftoff) and again, when hot, with its optimising one, and
 *   the baseline code with its tiering data held about 60 MB. Compiled once, optimised, it is smaller
 *   and as fast from the first query; the functions are still compiled lazily, as they are first run.
 *   The price is the start, whose every function the optimising compiler compiles on the event loop:
 *   on one machine, a start on an empty DATA_DIR took 6.6-6.7 s against 3.6-4.1 s with Liftoff, and
 *   the peak under load was 221-224 MB against 265-269 MB. Liftoff for the start alone, turned off
 *   once the shop answered, kept the whole 45 MB: the database's start runs its busiest functions.
 *   A start is paid once per deployment, the memory for as long as the shop runs.
 * - --heap-growing-percent=20: under load V8 let the heap grow to about 4 times what was live (40 MB
 *   live, 195 MB held) before collecting it; it now collects at 1.2 times. That costs CPU on the
 *   paths that allocate most for little work: measured side by side, 10-15% more CPU per request for
 *   the catalogue and a static file, none measurable for carts and orders, for about 95 MB less at
 *   peak. At 50 the CPU cost was not measurable and the peak about 45 MB higher (278 against 233 MB).
 * A third, the young generation's size, V8 reads only as the process starts, so `npm start` gives it
 * (package.json), and the benchmark starts the shop with the same flags: --max-semi-space-size=4. By
 * default V8 let the space where new objects are made grow to 32 MB, all of it resident; with 8 MB the
 * peak under catalogue, cart and order load fell from 257-264 to 231-237 MB on PGlite (and under
 * catalogue load from 150 to 124 MB on PostgreSQL), at the same CPU per request. With 4 MB
 * (--max-semi-space-size=2) it fell to 203-232 MB, for about 5% more CPU per order.
 * `npm start` sets glibc's allocator too (GLIBC_TUNABLES, also read only as the process starts, and
 * ignored by other C libraries): one arena for every thread instead of one for each thread that
 * allocates (the thread pool compresses the prepared answers), blocks of 128 KB and more mapped on
 * their own and given back when freed, and the heap's free top given back from 128 KB (glibc lets
 * both thresholds grow to 32 MB as a process runs, keeping what it frees). Measured side by side,
 * two rounds each of reads, cart and orders on PGlite: the peak fell from 223-225 to 201-203 MB, with
 * no difference in CPU per request beyond the runs' noise; under catalogue load on PostgreSQL, from
 * 124-127 to 114-115 MB.
 */
v8.setFlagsFromString('--no-liftoff');
v8.setFlagsFromString('--heap-growing-percent=20');

const { projectPath } = await import('./project-path.js');
const { startServer } = await import('./start-server.js');

// The pages' module, which loads much of the server, is imported once startServer has begun (its comments say why).
await startServer(async () => (await import('./pages.js')).builtPages(projectPath('dist/client')));
