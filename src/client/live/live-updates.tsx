import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveTopic } from '../../shared/cart.js';
import { useSession } from '../session/session.js';

const TOPICS: readonly LiveTopic[] = ['cart', 'orders'];

/**
 * Keeps the signed-in customer's data fresh: the server names what changed (on any device, through
 * any server process) and the matching queries are fetched again. The browser reopens a dropped
 * stream by itself; everything is fetched again then, since changes may have been missed.
 */
export function LiveUpdates() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const email = user?.email;

  useEffect(() => {
    if (!email) return;
    const events = new EventSource('/api/events');
    let connectedBefore = false;
    const refetch = (topic: LiveTopic) => void queryClient.invalidateQueries({ queryKey: [topic] });
    events.addEventListener('ready', () => {
      if (connectedBefore) TOPICS.forEach(refetch);
      connectedBefore = true;
    });
    for (const topic of TOPICS) events.addEventListener(topic, () => refetch(topic));
    events.addEventListener('resync', () => TOPICS.forEach(refetch));
    return () => events.close();
  }, [email, queryClient]);

  return null;
}
