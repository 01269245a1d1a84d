import { expect } from 'chai';
import { type ApiObject, type StateEntry, checkWorkspace } from '../../scripts/soak/ledger.js';
import { namePrefix } from '../../scripts/soak/workload.js';

const channel = (id: string, name: string, recipients = 'a-0@example.com'): ApiObject => ({
  kind: 'channel',
  id,
  name,
  changeable: recipients,
});
const stateChannel = (address: string, id: string, name: string, recipients = ['a-0@example.com']): StateEntry => ({
  address,
  type: 'sec_alert_channel_email',
  values: { intg_guid: id, name, recipients },
});

/** The findings for workspace 0, as `kind: address detail`. */
function check(state: StateEntry[], api: ApiObject[], holders = new Map<string, Set<number>>()): string[] {
  return checkWorkspace(0, state, api, namePrefix, holders).map(
    (f) => `${f.kind}: ${f.address ?? '-'} ${f.object?.id ?? '-'}`,
  );
}

describe("soak: the books, set against the API's objects", () => {
  const mine = `${namePrefix(0)}channel-0`;
  const theirs = `${namePrefix(1)}channel-0`;

  it('finds nothing when the state holds exactly its objects', () => {
    const api = [channel('A', mine), channel('B', theirs)];
    expect(check([stateChannel('sec_alert_channel_email.c0', 'A', mine)], api)).to.deep.equal([]);
  });

  it('finds an orphan: an object named for the workspace that its state does not hold', () => {
    expect(check([], [channel('A', mine)])).to.deep.equal(['orphan: - A']);
  });

  it('finds a duplicate: one name twice', () => {
    const api = [channel('A', mine), channel('B', mine)];
    expect(check([stateChannel('sec_alert_channel_email.c0', 'A', mine)], api)).to.deep.equal([
      'orphan: - B',
      'duplicate: - B',
    ]);
  });

  it("finds a takeover: the state holds another workspace's object, or one another state holds too", () => {
    const api = [channel('B', theirs)];
    expect(check([stateChannel('sec_alert_channel_email.c0', 'B', theirs)], api)).to.deep.equal([
      'takeover: sec_alert_channel_email.c0 B',
    ]);
    const shared = new Map([['A', new Set([0, 3])]]);
    expect(check([stateChannel('sec_alert_channel_email.c0', 'A', mine)], [channel('A', mine)], shared)).to.deep.equal([
      'takeover: sec_alert_channel_email.c0 A',
    ]);
  });

  it('finds a mismatch: an object gone, or one whose value is not what the state says', () => {
    expect(check([stateChannel('sec_alert_channel_email.c0', 'A', mine)], [])).to.deep.equal([
      'mismatch: sec_alert_channel_email.c0 -',
    ]);
    const api = [channel('A', mine, 'b-0@example.com')];
    expect(check([stateChannel('sec_alert_channel_email.c0', 'A', mine)], api)).to.deep.equal([
      'mismatch: sec_alert_channel_email.c0 A',
    ]);
  });
});
