/** The embedded sample backend, started for a build when no endpoint is configured. */
export interface Backend {
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** Starts the embedded content backend on a free 127.0.0.1 port. */
export async function startEmbeddedBackend(options: { port?: number; scale?: number } = {}): Promise<Backend> {
  const { startContentServer } = await import('../backend/server.ts');
  return startContentServer({ port: options.port ?? 0, host: '127.0.0.1', scale: options.scale });
}
