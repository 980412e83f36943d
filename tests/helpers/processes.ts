/** The processes a test starts, read from /proc (Linux): found while they run, gone once killed. */
import fs from 'node:fs'

/** The pids of the running `name` processes whose parent is `parent` (a zombie no longer runs). */
export function childrenNamed(parent: number, name: string) {
  const out: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(ppid) === parent && comm === name && state !== 'Z') out.push(Number(entry))
    } catch {
      // ended while we looked
    }
  }
  return out
}

/** True once the process is gone (or a zombie nobody has reaped yet: it no longer runs). */
export function isGone(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}
