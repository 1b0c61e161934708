/**
 * Producers of each receive in a function: the functions that send on the same channel, matched by
 * the holder (field or var) or by where the channel was made; runtime-fed channels (tickers, timers,
 * time.After) name the Go runtime as their producer.
 */
import type { ChannelOpRecord, Graph } from '../model/index.js';

export interface ReceiveWithProducers extends ChannelOpRecord {
  producers: string[];
}

const RUNTIME = /^time\.((Ticker|Timer)\.C|After|Tick)$/;

export function channelProducers(graph: Pick<Graph, 'channels'>, fnId: string): ReceiveWithProducers[] {
  const receives = graph.channels.filter((c) => c.fn === fnId && (c.op === 'recv' || c.op === 'range'));
  const sends = graph.channels.filter((c) => c.op === 'send');
  return receives.map((op) => {
    const origins = new Set(op.origins ?? []);
    const matched = sends.filter((c) => c.channel === op.channel || (c.origins ?? []).some((o) => origins.has(o)));
    const producers = [...new Set(matched.map((c) => `${c.fn}  (${c.file}:${c.line})`))];
    for (const o of origins) if (RUNTIME.test(o)) producers.push(`the Go runtime (${o})`);
    return { ...op, producers };
  });
}
