/**
 * A NodeODM stand-in for faults the simulator does not make: its `/info` answers as NodeODM
 * 2.2 does, task creation and the all.zip download are the test's own handlers, cancel and
 * remove say yes. Every request is counted by path.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface FakeNode {
  url: string
  /** Requests seen, by method and path (`POST /task/new/init`). */
  seen: Map<string, number>
  close(): Promise<void>
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

export async function startFakeNode(
  handlers: { init?: Handler; download?: Handler } = {},
): Promise<FakeNode> {
  const seen = new Map<string, number>()
  const sockets = new Set<Socket>()
  const json = (res: http.ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://node').pathname
    const key = `${req.method} ${path}`
    seen.set(key, (seen.get(key) ?? 0) + 1)
    if (path === '/info') {
      return json(res, {
        version: '2.2.4',
        taskQueueCount: 0,
        maxImages: null,
        engine: 'odm',
        engineVersion: '3.5.6',
      })
    }
    if (path === '/task/new/init' && handlers.init)
      return void req.resume().on('end', () => handlers.init!(req, res))
    if (path === '/task/new/init') return json(res, { uuid: 'fake-task' })
    if (path === '/task/cancel' || path === '/task/remove') return json(res, { success: true })
    if (/\/download\/all\.zip$/.test(path) && handlers.download) return handlers.download(req, res)
    const info = /^\/task\/([^/]+)\/info$/.exec(path)
    if (info)
      return json(res, {
        uuid: info[1],
        status: { code: 20 },
        progress: 50,
        processingTime: 1,
        imagesCount: 1,
      })
    json(res, { error: `${path} not found` })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
