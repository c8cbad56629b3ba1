import { performance } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { CATALOGUE_TOPIC } from '#shared/live.js';
import { saveSearchSynonyms } from '#server/catalog/search-synonyms.js';
import { MAX_VISITOR_STREAMS } from '#server/live/routes.js';
import { openManyEventStreams } from '../support/many-event-streams.js';
import { CROWD_TEST_TIMEOUT_MS } from './shopper.js';
import { describeEachDatabase } from './test-app.js';

// What one server process holds: as many visitors' open pages as its limit lets in, every one of them
// told of a catalogue change, and the next visitor refused until a place is free.
describeEachDatabase(
  'a process full of open pages',
  (context) => {
    it(`holds ${MAX_VISITOR_STREAMS.toLocaleString('en')} visitors' streams, tells every one of a catalogue change, and refuses one more`, async () => {
      const testApp = context();
      const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      const streams = await openManyEventStreams(`${address}/api/events`, MAX_VISITOR_STREAMS);
      try {
        expect(streams.open).toBe(MAX_VISITOR_STREAMS);
        const refused = await fetch(`${address}/api/events`, { headers: { 'x-forwarded-for': '10.99.0.1' } });
        expect(refused.status).toBe(429);
        expect((await refused.json()).error.code).toBe('too_many_streams');

        const changed = performance.now();
        await saveSearchSynonyms(testApp.database.db, { groups: [['press-on', 'изкуствени нокти']] });
        const delays = await streams.heardBy(CATALOGUE_TOPIC, changed, 30_000);
        expect(delays).toHaveLength(MAX_VISITOR_STREAMS);
      } finally {
        streams.close();
      }
      // A crowd: 5 s on either database on a quiet 2-core machine, which a busy one stretches.
    }, CROWD_TEST_TIMEOUT_MS);
  },
  { TRUST_PROXY: 'true' },
);
