#!/usr/bin/env node
// Browser tests drive Debian's Chromium: Playwright cannot download its own browsers here.
// Installs it when missing and we are root on Debian; otherwise says exactly what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log(`[setup] ${CHROMIUM} is missing: installing Debian's chromium package (apt-get)…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  } else {
    console.error(
      `Browser tests need Chromium at ${CHROMIUM}.\n` +
        (hasApt ? 'Install it with: sudo apt-get install -y chromium\n' : 'Install Chromium with your package manager,\n') +
        'or point CHROMIUM_PATH at an installed Chromium or Chrome binary.',
    );
    process.exit(1);
  }
}
