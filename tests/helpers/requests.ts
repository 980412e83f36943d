/** Calling route loaders and actions directly, as Remix would. */
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from '@remix-run/node'
import { getToast } from '#app/lib/http/toast.server.ts'

type Handler = (
  args: LoaderFunctionArgs & ActionFunctionArgs,
) => Promise<Response> | Response | Promise<unknown>

const BASE = 'http://localhost:3999'

export interface CallOptions {
  method?: string
  headers?: Record<string, string>
  json?: unknown
  form?: Record<string, string> | FormData
  body?: BodyInit
  params?: Record<string, string>
  context?: Partial<AppLoadContext>
  /** The request's signal (a client that goes away). */
  signal?: AbortSignal
}

/** Calls a route function and always returns a Response (thrown responses included). */
export async function callRoute(
  handler: Handler,
  path: string,
  options: CallOptions = {},
): Promise<Response> {
  const headers = new Headers(options.headers)
  let body: BodyInit | undefined = options.body
  if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json')
    body = JSON.stringify(options.json)
  } else if (options.form) {
    if (options.form instanceof FormData) body = options.form
    else {
      headers.set('Content-Type', 'application/x-www-form-urlencoded')
      body = new URLSearchParams(options.form)
    }
  }
  const method = options.method ?? (body ? 'POST' : 'GET')
  // A browser names the page a write comes from; a test that wants another site (or none)
  // says so in its own headers.
  if (!['GET', 'HEAD'].includes(method) && !headers.has('Origin') && !headers.has('Sec-Fetch-Site')) {
    headers.set('Origin', BASE)
  }
  const request = new Request(BASE + path, { method, headers, body, signal: options.signal })
  try {
    const result = await handler({
      request,
      params: options.params ?? {},
      context: { clientIp: '203.0.113.7', ...options.context } as AppLoadContext,
    })
    if (result instanceof Response) return result
    return Response.json(result)
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T
}

/** The toast a response flashes (what the next page shows), or null. */
export async function toastOf(res: Response) {
  const cookie = res.headers.get('Set-Cookie')
  if (!cookie) return null
  const request = new Request(BASE + '/', { headers: { Cookie: cookie.split(';')[0]! } })
  return (await getToast(request)).toast
}
