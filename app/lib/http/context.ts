/** What server.ts hands every loader and action besides the request. */
import type { AppLoadContext } from '@remix-run/node'
import type { SessionLookup } from '#app/domain/auth/request-session.server.ts'

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The client's address: the TCP peer, or the trusted proxy's header (server.ts). */
    clientIp: string
    cspNonce?: string
    /**
     * The session lookup the write budget already made for this request (writes only).
     * The auth guards use it once; routes ask the guards, never this.
     */
    session?: SessionLookup
  }
}

export function clientIpOf(context: AppLoadContext | undefined): string {
  return context?.clientIp || 'unknown'
}
