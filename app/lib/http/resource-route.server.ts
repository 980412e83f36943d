/**
 * The one way to write a resource route outside /api (a share link's files, the PDFs, the
 * document copies, the upload forms that work without JavaScript), as `apiRoute` is for /api:
 * `export const { loader, action } = resourceRoute({ GET, POST, errors })`. A method the route
 * does not name is 405 `{ error }` with `Allow`, before anything else is read (a PATCH to an
 * upload form is 405, not the 415 its body would get); HEAD is GET. `errors` wraps every
 * handler (a share link's `withShareErrors`); without it a handler's refusal is its own
 * (`asPage`, a thrown Response).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'

import { methodNotAllowed } from './api.server.ts'

type Handler = (args: LoaderFunctionArgs | ActionFunctionArgs) => Response | Promise<Response>

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
type Method = (typeof METHODS)[number]

export function resourceRoute(
  spec: Partial<Record<Method, Handler>> & {
    errors?: (run: () => Promise<Response>) => Response | Promise<Response>
  },
) {
  const allowed = METHODS.filter((method) => spec[method])

  async function answer(args: LoaderFunctionArgs | ActionFunctionArgs) {
    const method = (args.request.method === 'HEAD' ? 'GET' : args.request.method) as Method
    const handler = allowed.includes(method) ? spec[method] : undefined
    if (!handler) return methodNotAllowed(allowed)
    const run = async () => handler(args)
    return spec.errors ? spec.errors(run) : run()
  }

  return { loader: answer, action: answer }
}
