// Debian's Chromium as the benchmarks that drive a browser start it: headless, and with
// nothing that reaches for the network on its own (the machine's closed network refuses
// those connections, many at a time).

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
