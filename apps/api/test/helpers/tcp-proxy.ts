import net from 'node:net';

// A TCP proxy between the app and its PostgreSQL server, for fault tests: the shared
// PostgreSQL of the machine must not be restarted, so the outage is made here instead.
//   cut()        every open connection is reset and new ones are refused (a restart, a crash)
//   blackhole()  open connections stop carrying data and new ones are accepted but never
//                answered (a network partition, a server that hangs: only timeouts notice)
//   restore()    connections go through again

export interface TcpProxy {
  /** host:port to connect to instead of the target. */
  readonly address: string;
  readonly port: number;
  cut(): void;
  blackhole(): void;
  restore(): void;
  /** Connections made through the proxy so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: 'open' | 'cut' | 'blackhole' = 'open';
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  // Connections that lost data to a blackhole: no real server would ever answer them, so
  // they are reset when the proxy is restored (as a hung server's would time out).
  const stuck = new Set<net.Socket>();
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'cut') return void client.resetAndDestroy();
    if (mode === 'blackhole') return void stuck.add(client); // accepted, never answered
    connections++;
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    // Forwarded by hand, so that a blackhole can swallow what arrives on open connections.
    client.on('data', (d) => {
      if (mode !== 'blackhole') upstream.write(d);
      else stuck.add(client);
    });
    upstream.on('data', (d) => {
      if (mode !== 'blackhole') client.write(d);
      else stuck.add(client);
    });
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop);
    upstream.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const resetAll = () => {
    for (const s of sockets) s.resetAndDestroy();
  };
  return {
    address: `127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    cut() {
      mode = 'cut';
      resetAll();
    },
    blackhole() {
      mode = 'blackhole';
    },
    restore() {
      mode = 'open';
      for (const s of stuck) s.resetAndDestroy();
      stuck.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        resetAll();
        server.close(() => resolve());
      }),
  };
}

/** The same connection string, through the proxy. */
export function viaProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}
