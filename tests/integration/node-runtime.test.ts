import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, SITE_BIN } from '../helpers/cli.ts';

const packageJson = JSON.parse(await readFile(`${ROOT}/package.json`, 'utf8')) as {
  version: string;
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};

/** Runs a command from the project folder and collects its output. */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string; pid: number | undefined }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, pid: child.pid }));
  });
}

describe('the Node.js the project runs on', () => {
  it('is the Node.js 24 that package.json pins, here in the tests and in the commands they start', async () => {
    expect(packageJson.engines.node).toBe('>=24');
    expect(packageJson.optionalDependencies.node).toMatch(/^24\.\d+\.\d+$/);
    expect(process.versions.node).toBe(packageJson.optionalDependencies.node);
    // The tests start the CLI with process.execPath (tests/helpers/cli.ts); so does the CLI its children.
    const child = await run(process.execPath, ['-p', 'process.versions.node'], process.env);
    expect(child.stdout.trim()).toBe(packageJson.optionalDependencies.node);
  });

  it("is what npm runs the scripts and `site` on, whichever Node.js the system's PATH names", async () => {
    // The PATH of someone who cloned the project, without the node_modules/.bin that npm and npx put
    // first: its `node` is the system's (here Node.js 20), which also runs npm itself.
    const PATH = process.env
      .PATH!.split(delimiter)
      .filter((dir) => !/node_modules[\\/]\.bin$|node-gyp-bin$/.test(dir))
      .join(delimiter);
    const env = { ...process.env, PATH };
    const node = await run('npm', ['exec', '--offline', '--', 'node', '-p', 'process.versions.node'], env);
    expect(node.stdout.trim(), node.stderr).toBe(packageJson.optionalDependencies.node);
    // The CLI refuses to run on an older Node.js (next test), so this also shows it ran on 24.
    const site = await run('npm', ['run', '--silent', 'site', '--', '--version'], env);
    expect(site.stderr).not.toContain('NodeTooOld');
    expect(site.stdout.trim()).toBe(packageJson.version);
    expect(site.code).toBe(0);
  });

  it('`site` started by an older Node.js says which one ran it and how to start it on 24, and does nothing else', async () => {
    // Node.js 20 as far as the command can tell: process.versions.node is the only thing it checks.
    // (NODE_OPTIONS splits at spaces and drops double quotes.)
    const asNode20 = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.19.0'})";
    const result = await runCli(['build', '--out', '/nonexistent/never-written'], { env: { NODE_OPTIONS: `--import=${asNode20}` } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`[NodeTooOld] site runs on Node.js 24 or newer; this is Node.js 20.19.0 (${process.execPath}).`);
    expect(result.stderr).toContain('Hint: Start it through npm (npm start, npx site <command>, npm run site -- <command>)');
  });

  it("`site build` and `site live` cap the main thread's young generation at 32 MB, as Node 20 did, and fixes malloc's mapping threshold, in the process that was started, unless given a cap or a threshold", async () => {
    // Loaded into every Node.js the command runs as (NODE_OPTIONS): says, as it ends, which process it was and with which flags.
    const dir = await mkdtemp(join(tmpdir(), 'node-runtime-'));
    const hook = join(dir, 'hook.mjs');
    await writeFile(
      hook,
      'process.on("exit", () => process.stderr.write(`FLAGS ${JSON.stringify({ pid: process.pid, execArgv: process.execArgv, mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null })}\\n`));\n',
    );
    let env: Record<string, string> = {};
    const flags = async (
      nodeOptions: string,
      ...args: string[]
    ): Promise<{ pid: number; execArgv: string[]; mmapThreshold: string | null; startedPid: number | undefined }> => {
      // An invalid option ends the build at once, after the command has started as it always does.
      const result = await run(process.execPath, [SITE_BIN, ...args], {
        ...process.env,
        ...env,
        NODE_OPTIONS: `--import=${pathToFileURL(hook).href} ${nodeOptions}`,
      });
      const line = /^FLAGS (.*)$/m.exec(result.stderr)?.[1];
      expect(line, result.stderr).toBeDefined();
      return { ...(JSON.parse(line!) as { pid: number; execArgv: string[]; mmapThreshold: string | null }), startedPid: result.pid };
    };
    const build = await flags('', 'build', '--concurrency', 'none');
    expect(build.execArgv).toEqual(['--max-semi-space-size=16']);
    expect(build.pid).toBe(build.startedPid);
    // The same restart fixes glibc's threshold for mapped blocks (bin/site.js says why), unless the user set one.
    expect(build.mmapThreshold).toBe('262144');
    env = { MALLOC_MMAP_THRESHOLD_: '1048576' };
    expect((await flags('', 'build', '--concurrency', 'none')).mmapThreshold).toBe('1048576');
    env = {};
    // `site live` renders its updates in its main thread, as a build does: the same cap and threshold.
    const live = await flags('', 'live', '--poll-interval', 'none');
    expect(live.execArgv).toEqual(['--max-semi-space-size=16']);
    expect(live.pid).toBe(live.startedPid);
    expect(live.mmapThreshold).toBe('262144');
    // A cap given by the user stands; other commands start once, as they are.
    expect((await flags('--max-semi-space-size=32', 'build', '--concurrency', 'none')).execArgv).toEqual([]);
    expect((await flags('', '--version')).execArgv).toEqual([]);
    expect((await flags('', '--version')).mmapThreshold).toBeNull();
  });
});
