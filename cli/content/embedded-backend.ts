import { BuildErrors, createBuildError } from '../errors/errors.ts';

/** The embedded sample backend, started for a build when no endpoint is configured. */
export interface Backend {
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** Starts the embedded content backend, by default on a free 127.0.0.1 port. */
export async function startEmbeddedBackend(
  options: { port?: number; scale?: number; host?: string; allowRemote?: boolean; allowOrigins?: readonly string[]; photos?: boolean } = {},
): Promise<Backend> {
  const { startContentServer, SampleCredentialsExposed } = await import('../../backend/server.ts');
  const host = options.host ?? '127.0.0.1';
  return startContentServer({
    port: options.port ?? 0,
    host,
    scale: options.scale,
    allowRemote: options.allowRemote,
    allowOrigins: options.allowOrigins,
    photos: options.photos,
  }).catch((cause: unknown) => {
    if (cause instanceof SampleCredentialsExposed) throw createBuildError(BuildErrors.SampleCredentialsExposed, [host], { cause });
    throw cause;
  });
}
