/**
 * Where the end-to-end run keeps its database, files and received mail. Each Playwright
 * worker has its own app (port E2E_PORT + its parallel index) with its own database, so
 * journeys in two workers never see each other's data; a spec reads these values and
 * gets the ones of the worker running it.
 */
import path from 'node:path'

export const e2eBasePort = Number(process.env.E2E_PORT ?? 3100)

/** The app, database and mail folder of one worker slot. */
export function e2eServerOf(index: number) {
  const port = e2eBasePort + index
  const dir = path.resolve('tests/.tmp', `e2e-${port}`)
  return {
    port,
    dir,
    mailDir: path.join(dir, 'mail'),
    stateFile: path.join(dir, 'state.json'),
    sessionsFile: path.join(dir, 'sessions.json'),
  }
}

/** What the workers of one run share (rasters built once per run); emptied by the global set-up. */
export const e2eSharedDir = path.resolve('tests/.tmp', `e2e-${e2eBasePort}-shared`)

// Playwright numbers its running workers 0…workers-1 (a restarted worker keeps its number);
// the main process (global set-up) has none.
const own = e2eServerOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0))
export const e2ePort = own.port
export const e2eDir = own.dir
export const e2eMailDir = own.mailDir
/** `{ pid, tileOrigin }` of the worker's app and its tile server (written by the global set-up). */
export const e2eStateFile = own.stateFile
/** `{ [email]: cookie value }`: the demo accounts' sessions on the worker's app (opened by the global set-up). */
export const e2eSessionsFile = own.sessionsFile
/** The worker's app as a browser names it in `Origin` (API helpers send it on writes). */
export const e2eOrigin = `http://localhost:${e2ePort}`
