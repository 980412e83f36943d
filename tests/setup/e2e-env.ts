/** Where the end-to-end run keeps its database, files and received mail. */
import path from 'node:path'

export const e2ePort = Number(process.env.E2E_PORT ?? 3100)
export const e2eDir = path.resolve('tests/.tmp', `e2e-${e2ePort}`)
export const e2eMailDir = path.join(e2eDir, 'mail')
export const e2eStateFile = path.join(e2eDir, 'state.json')
