import { createServer, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that reads the protocol both ways and counts the queries a client
 * started while an earlier one on the same connection was still unanswered (pipelined): what PgBouncer in
 * transaction mode cannot follow. A query starts with Parse ('P') or Query ('Q'); the connection is
 * answered at ReadyForQuery ('Z'), or, after a Flush ('H'), at the Describe's RowDescription ('T') or
 * NoData ('n').
 */
export async function pipelineWatch(target: { host: string; port: number }) {
  let pipelined = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(target.port, target.host);
    sockets.add(client).add(upstream);
    let waiting = false; // a request was sent and its answer has not come
    let flushed = false; // the last request ended with a Flush, not a Sync
    let started = false; // past the startup message (which has no type byte)
    let fromClient = Buffer.alloc(0);
    let fromServer = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      fromClient = Buffer.concat([fromClient, chunk]);
      for (;;) {
        if (!started) {
          if (fromClient.length < 4) break;
          const len = fromClient.readInt32BE(0);
          if (fromClient.length < len) break;
          fromClient = fromClient.subarray(len);
          started = true;
          continue;
        }
        if (fromClient.length < 5) break;
        const type = String.fromCharCode(fromClient[0]!);
        const len = fromClient.readInt32BE(1);
        if (fromClient.length < 1 + len) break;
        fromClient = fromClient.subarray(1 + len);
        if ((type === 'P' || type === 'Q') && waiting) pipelined++;
        if (type === 'S' || type === 'Q') {
          waiting = true;
          flushed = false;
        } else if (type === 'H') {
          waiting = true;
          flushed = true;
        } else if (type !== 'X') waiting = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      fromServer = Buffer.concat([fromServer, chunk]);
      while (fromServer.length >= 5) {
        const type = String.fromCharCode(fromServer[0]!);
        const len = fromServer.readInt32BE(1);
        if (fromServer.length < 1 + len) break;
        fromServer = fromServer.subarray(1 + len);
        if (type === 'Z' || (flushed && (type === 'T' || type === 'n'))) waiting = false;
      }
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    /** Queries written while the connection still owed an answer, since the start. */
    pipelined: () => pipelined,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
