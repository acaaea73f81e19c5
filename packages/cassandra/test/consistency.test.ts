import { CASSANDRA_CONTACT_POINT, createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCassandra, nativePortOf } from '../src/client.ts';
import { replicasByDc, requirements } from '../src/consistency.ts';

describe('the port of the nodes the driver discovers', () => {
  it('is the contact points’ when they agree, 9042 when they name none', () => {
    expect(nativePortOf(['127.0.0.2:41445', '127.0.0.3:41445', '127.0.0.4:41445'])).toBe(41445);
    expect(nativePortOf(['cassandra', '[::1]:9042', '::1'])).toBe(9042);
    expect(nativePortOf(['[fd00::2]:9142'])).toBe(9142);
    expect(nativePortOf(['a:9042', 'b:9142'])).toBeUndefined();
  });
});

describe('what a consistency level needs', () => {
  const three = replicasByDc(
    { class: 'org.apache.cassandra.locator.NetworkTopologyStrategy', datacenter1: '3' },
    'datacenter1',
  );
  const two = replicasByDc({ class: 'NetworkTopologyStrategy', dc1: '3', dc2: '2' }, 'dc1');

  it('counts replicas per data centre, SimpleStrategy as local', () => {
    expect(
      replicasByDc({ class: 'org.apache.cassandra.locator.SimpleStrategy', replication_factor: '3' }, 'dc9'),
    ).toEqual(new Map([['dc9', 3]]));
    expect(two).toEqual(
      new Map([
        ['dc1', 3],
        ['dc2', 2],
      ]),
    );
  });

  it('is Cassandra’s blockFor: quorums of the factors, local ones of the local data centre', () => {
    expect(requirements('LOCAL_QUORUM', three, 'datacenter1')).toEqual([{ needed: 2, dcs: ['datacenter1'] }]);
    expect(requirements('ALL', three, 'datacenter1')).toEqual([{ needed: 3, dcs: ['datacenter1'] }]);
    expect(requirements('QUORUM', two, 'dc1')).toEqual([{ needed: 3, dcs: ['dc1', 'dc2'] }]);
    expect(requirements('LOCAL_QUORUM', two, 'dc1')).toEqual([{ needed: 2, dcs: ['dc1'] }]);
    expect(requirements('EACH_QUORUM', two, 'dc1')).toEqual([
      { needed: 2, dcs: ['dc1'] },
      { needed: 2, dcs: ['dc2'] },
    ]);
    expect(requirements('LOCAL_ONE', two, 'dc2')).toEqual([{ needed: 1, dcs: ['dc2'] }]);
    expect(() => requirements('ANY', three, 'datacenter1')).toThrow(/unknown/);
  });
});

describe('the check at start', () => {
  let ks: TestKeyspace;
  beforeAll(async () => {
    ks = await createTestKeyspace(import.meta.url);
  });
  afterAll(async () => {
    await ks.close();
  });

  const connect = async (write: string, read = 'LOCAL_QUORUM') => {
    const client = await connectCassandra({
      contactPoints: [CASSANDRA_CONTACT_POINT],
      localDataCenter: 'datacenter1',
      keyspace: ks.keyspace,
      readConsistency: read,
      writeConsistency: write,
    });
    await client.shutdown();
  };
  const replicate = (map: string) =>
    ks.client.execute(`ALTER KEYSPACE ${ks.keyspace} WITH replication = ${map}`);

  it('passes a level the keyspace and the cluster can meet, and names the variable of one they never can', async () => {
    // One replica on the one node of the stack.
    await connect('LOCAL_QUORUM');
    await connect('ALL', 'ONE');
    await expect(connect('TWO')).rejects.toThrow(
      /CASSANDRA_WRITE_CONSISTENCY: TWO needs 2 acknowledgements, keyspace \w+ has 1 replica\b/,
    );
    await expect(connect('ONE', 'THREE')).rejects.toThrow(/CASSANDRA_READ_CONSISTENCY: THREE needs 3/);

    // Three replicas asked of a one-node cluster: a quorum of them can never answer.
    await replicate("{'class': 'NetworkTopologyStrategy', 'datacenter1': 3}");
    await expect(connect('LOCAL_QUORUM', 'ONE')).rejects.toThrow(
      /CASSANDRA_WRITE_CONSISTENCY: LOCAL_QUORUM needs 2 acknowledgements, the cluster has 1 node in datacenter1/,
    );
    await connect('ONE', 'LOCAL_ONE');

    // (A keyspace with no replica in the local data centre cannot be made on this one-node
    // cluster: Cassandra 5 refuses a data centre it does not know.)
  });
});
