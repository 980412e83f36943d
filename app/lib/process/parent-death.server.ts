/**
 * Children that die with the server: every child process the server starts (GDAL, the model
 * converter) is prefixed so the kernel kills it when the server dies, however it dies.
 */
import { spawnSync } from 'node:child_process'

let deathSignalPrefix: string[] | null = null

/**
 * `setpriv --pdeathsig KILL --` when this machine has it (util-linux ≥ 2.33, Linux only): the
 * kernel kills the child when the server dies, however it dies. Without it, children run
 * as before (the time limit still holds while the server lives).
 */
export function parentDeathPrefix(): string[] {
  if (deathSignalPrefix) return deathSignalPrefix
  const prefix = ['setpriv', '--pdeathsig', 'KILL', '--']
  let works = false
  if (process.platform === 'linux') {
    const probe = spawnSync(prefix[0]!, [...prefix.slice(1), 'true'], { timeout: 5000, stdio: 'ignore' })
    works = !probe.error && probe.status === 0
  }
  deathSignalPrefix = works ? prefix : []
  return deathSignalPrefix
}
