/**
 * The live view's code that needs no browser: Server-Sent Events taken apart whatever the
 * chunks, the endpoint's live-answer events, and a live answer applying them.
 */
import { expect } from 'chai';
import { EventStreamParser, LiveAnswer, liveEvent, type StreamEvent } from '../../console/src/event-stream.js';

const EX = 'http://example.com/';

/** The events of a stream's text, given to the parser in chunks of `size` characters. */
function parse(text: string, size: number): StreamEvent[] {
  const parser = new EventStreamParser();
  const events: StreamEvent[] = [];
  for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
  return events;
}

const uri = (name: string) => ({ type: 'uri', value: `${EX}${name}` });

describe('console: live answers (no browser)', () => {
  it('takes Server-Sent Events apart in chunks cut anywhere, with LF, CR LF or CR line ends, skipping comments', () => {
    const answer = JSON.stringify({ version: 7, head: { vars: ['b'] }, results: { bindings: [{ b: uri('b1') }] } });
    const change = JSON.stringify({ version: 8, head: { vars: ['b'] }, additions: { bindings: [{ b: uri('b2') }] }, deletions: { bindings: [] } });
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = [': keep-alive', '', 'id: 7', 'event: answer', `data: ${answer}`, '', ': keep-alive', '', 'id: 8', 'event:change', `data: ${change}`, '', 'event: error', 'data: {"message":', 'data: "gone"}', '', ''].join(eol);
      for (const size of [1, 2, 3, 7, 64, text.length]) {
        const events = parse(text, size);
        expect(events, `${JSON.stringify(eol)} in chunks of ${size}`).to.deep.equal([
          { id: '7', type: 'answer', data: answer },
          { id: '8', type: 'change', data: change },
          { id: '8', type: 'error', data: '{"message":\n"gone"}' },
        ]);
      }
    }
  });

  it('reads the endpoint’s answer, change and error events, and applies them to the rows shown', () => {
    const live = new LiveAnswer();
    const event = (type: string, data: unknown) => {
      const e = liveEvent({ id: undefined, type, data: JSON.stringify(data) });
      if (!e || e.kind === 'error') throw new Error('expected an answer or a change');
      return e;
    };
    live.apply(event('answer', { version: 3, head: { vars: ['b', 'o'] }, results: { bindings: [{ b: uri('b1'), o: uri('ann') }, { b: uri('b2') }, { b: uri('b2') }] } }));
    expect(live.version).to.equal(3);
    expect(live.variables).to.deep.equal(['b', 'o']);
    expect(live.size).to.equal(3);
    expect(live.rows[1]!.row).to.deep.equal([{ type: 'uri', value: `${EX}b2` }, undefined]);
    // a bag: one deletion removes one copy; the added row is marked
    const { added, removed } = live.apply(event('change', { version: 4, head: { vars: ['b', 'o'] }, additions: { bindings: [{ b: uri('b3'), o: { type: 'literal', value: '3', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } }] }, deletions: { bindings: [{ b: uri('b2') }] } }));
    expect(added.map((r) => r.row[0]?.value)).to.deep.equal([`${EX}b3`]);
    expect(removed.map((r) => r.row[0]?.value)).to.deep.equal([`${EX}b2`]);
    expect(live.rows.map((r) => r.state)).to.deep.equal(['shown', 'removed', 'shown', 'added']);
    expect(live.size).to.equal(3);
    live.drop(removed);
    expect(live.rows.map((r) => [r.row[0]?.value, r.state])).to.deep.equal([
      [`${EX}b1`, 'shown'],
      [`${EX}b2`, 'shown'],
      [`${EX}b3`, 'added'],
    ]);
    // the next change ends the last one's highlight; removing an unseen row changes nothing
    live.apply(event('change', { version: 5, head: { vars: ['b', 'o'] }, additions: { bindings: [] }, deletions: { bindings: [{ b: uri('b9') }] } }));
    expect(live.rows.map((r) => r.state)).to.deep.equal(['shown', 'shown', 'shown']);
    // a resynchronisation replaces everything and says from which version changes were missed
    const resync = liveEvent({ id: '9', type: 'answer', data: JSON.stringify({ version: 9, head: { vars: ['b', 'o'] }, results: { bindings: [{ b: uri('b7') }] }, missedFrom: 6 }) });
    expect(resync).to.include({ kind: 'answer', version: 9, missedFrom: 6 });
    live.apply(resync as Parameters<LiveAnswer['apply']>[0]);
    expect(live.rows.map((r) => r.row[0]?.value)).to.deep.equal([`${EX}b7`]);
    expect(liveEvent({ id: undefined, type: 'error', data: '{"message":"the query was deregistered"}' })).to.deep.equal({ kind: 'error', message: 'the query was deregistered' });
    expect(liveEvent({ id: undefined, type: 'message', data: '{}' })).to.equal(undefined);
    expect(() => liveEvent({ id: undefined, type: 'change', data: '{"head":{}}' })).to.throw(/no version/);
  });
});
