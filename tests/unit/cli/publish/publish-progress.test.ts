import { describe, expect, it } from 'vitest';
import { fakeTime } from '../../../helpers/fake-time.ts';
import { ASSETS_DIR } from '../../../../runtime/shared/contract.ts';
import { LATEST_FILE } from '../../../../runtime/shared/paths.ts';
import { uploadInStages, uploadsDone } from '../../../../cli/publish/execute.ts';
import { memoryFile } from '../../../../cli/publish/local.ts';
import type { PlannedUpload } from '../../../../cli/publish/plan.ts';
import type { ObjectStore } from '../../../../cli/publish/s3-store.ts';
import { createBuildProgress } from '../../../../cli/terminal/progress.ts';
import { startPlainProgress } from '../../../../cli/terminal/progress-plain.ts';

const upload = (key: string, bytes: number): PlannedUpload => ({ file: memoryFile(key, new Uint8Array(bytes)), reason: 'new' });

describe("publish's progress, in the build's progress model", () => {
  it('counts each upload stage in files and bytes, says when a stage starts and ends, and is shown by the plain display while it runs', async () => {
    const time = fakeTime();
    const progress = createBuildProgress(time.now);
    const shown: string[] = [];
    const display = startPlainProgress(progress, (line) => shown.push(line), { intervalMs: 2000, every: time.every });
    const logged: string[] = [];
    const logger = {
      info: (stage: string, message: string) => void logged.push(`[${stage}] ${message}`),
      warn: () => undefined,
      error: () => undefined,
    };
    const uploads = [
      upload(`${ASSETS_DIR}/site-1.css`, 2048),
      upload('news/a/index.html', 1024),
      upload('news/b/index.html', 1024),
      upload('news/c/index.html', 3072),
      upload(LATEST_FILE, 100),
    ];
    let puts = 0;
    const store = {
      put: async (key: string) => {
        // Halfway through the pages, two seconds in: the display's line shows where the stage stands.
        if (++puts === 3) {
          time.advance(2000);
          time.tick();
        }
        expect(key).toBeTypeOf('string');
      },
    } as unknown as ObjectStore;
    await uploadInStages(uploads, { store, logger, concurrency: 1, progress, onAction: () => undefined });
    display.stop();

    expect(logged).toEqual([
      '[publish] assets: 1 file to upload, 2.0 KiB',
      '[publish] 1/5 uploaded, 2.0 KiB of 7.1 KiB (assets)',
      '[publish] pages: 3 files to upload, 5.0 KiB',
      '[publish] 4/5 uploaded, 7.0 KiB of 7.1 KiB (pages)',
      '[publish] latest: 1 file to upload, 100 B',
      '[publish] 5/5 uploaded, 7.1 KiB of 7.1 KiB (latest)',
    ]);
    expect(shown).toEqual(['[pages] 1/3 files (33%), 1.0 KiB of 5.0 KiB, 1/s, about 4.0 s left']);
    expect(uploadsDone(progress)).toEqual({ done: 5, bytes: 2048 + 5120 + 100, running: null });
  });

  it('names the stage a failed run stopped in, and the uploads done before it', async () => {
    const progress = createBuildProgress();
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const store = {
      put: async (key: string) => {
        if (key.endsWith('index.html')) throw new Error('refused');
      },
    } as unknown as ObjectStore;
    await expect(
      uploadInStages([upload(`${ASSETS_DIR}/site-1.css`, 10), upload('news/a/index.html', 10)], {
        store,
        logger,
        concurrency: 1,
        progress,
        onAction: () => undefined,
      }),
    ).rejects.toThrow('refused');
    expect(uploadsDone(progress)).toEqual({ done: 1, bytes: 10, running: 'pages' });
  });
});
