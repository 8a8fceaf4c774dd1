import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  kernel: string;
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  let pretty = `${os.type()} ${os.release()}`;
  try {
    pretty = /PRETTY_NAME="?([^"\n]+)"?/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? pretty;
  } catch {
    // not Linux: keep os.type()
  }
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: pretty,
    kernel: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg(),
  };
}
