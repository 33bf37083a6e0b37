// The embedded database's own thread: PGlite, speaking the PostgreSQL wire protocol on a Unix socket, so
// its query work never blocks the server's event loop. Plain JavaScript: it loads the same way under
// tsx, vitest and plain node.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, socketPath } = workerData;

try {
  const db = await PGlite.create({ dataDir });
  // One client connection at a time is all PGlite can serve (it has one backend); the second slot only
  // lets a reconnect in while the previous socket is still closing.
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 2 });
  await server.start();
  parentPort.on('message', async (message) => {
    if (message === 'dump') {
      // A backup (issue 25): the whole data directory as PGlite's gzipped tarball, moved to the caller.
      try {
        const file = await db.dumpDataDir('gzip');
        const bytes = new Uint8Array(await file.arrayBuffer());
        parentPort.postMessage({ dumped: bytes }, [bytes.buffer]);
      } catch (err) {
        parentPort.postMessage({ dumpError: String(err?.stack ?? err) });
      }
      return;
    }
    if (message !== 'close') return;
    try {
      await server.stop();
      // Closing checkpoints and flushes PGlite's files to dataDir.
      await db.close();
      parentPort.postMessage({ closed: true });
    } catch (err) {
      parentPort.postMessage({ closed: true, error: String(err?.stack ?? err) });
    }
  });
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ error: String(err?.stack ?? err) });
}
