/**
 * Preloaded into every child process the benchmarks start (`node --import tsx --import
 * ./bench/childGuard.ts <script>`): when the benchmark process goes away, even by SIGKILL, the IPC
 * channel to it closes and this child shuts itself down (SIGTERM to itself, so the servers' own
 * graceful shutdown runs; a hard exit a few seconds later if that hangs). Without an IPC channel
 * (the script started by hand) it does nothing.
 */
if (typeof process.send === 'function') {
  process.on('disconnect', () => {
    setTimeout(() => process.exit(1), 3000).unref();
    process.kill(process.pid, 'SIGTERM');
  });
  // Listening for 'disconnect' refs the channel; the child's lifetime stays its own business.
  (process.channel as { unref?: () => void } | undefined)?.unref?.();
}

export {};
