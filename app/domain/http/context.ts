/** What server.ts hands every loader and action besides the request. */
import type { AppLoadContext } from '@remix-run/node'

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The client's address: the TCP peer, or the trusted proxy's header (server.ts). */
    clientIp: string
    cspNonce?: string
  }
}

export function clientIpOf(context: AppLoadContext | undefined): string {
  return context?.clientIp || 'unknown'
}
