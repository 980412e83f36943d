/**
 * The one way to write an /api route: `export const { loader, action } = apiRoute({ … })`.
 * In order: a method the route does not name is 405 `{ error }` with `Allow` (before any
 * session is read); the session and role (`roles`; 'public' for callers without one, e.g.
 * the ITN or login); each named id param through `parseId` (400 `Invalid <label>`); then the
 * handler, whose `body(schema)` reads the JSON through `readJsonBody`. Every thrown
 * DomainError (or Response) becomes its /api answer here, so no route catches.
 */
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import type { Role, User } from '#db/schema.ts'
import type { z } from 'zod'

import {
  assertSomethingToUpdate,
  domainErrorResponse,
  methodNotAllowed,
  parseId,
  readJson,
  readJsonBody,
  type FieldErrors,
} from './api.server.ts'

type Roles = Role | Role[]
/** Who may call: any signed-in user (the default), these roles, or anyone ('public'). */
type Access = Roles | 'public'

interface BodyOptions {
  /** The form's own error text instead of the first field's (see `readJsonBody`). */
  message?: (fieldErrors: FieldErrors) => string
  /** Some fields of a record: a body that names none is 400 'Nothing to update'. */
  partial?: boolean
}

interface ApiCall<K extends string, U> {
  request: Request
  context: AppLoadContext
  /** The raw route params (ids are in `ids`). */
  params: LoaderFunctionArgs['params']
  ids: Record<K, number>
  user: U
  /** The JSON body through its schema (400 with field errors); without one, the parsed JSON as is. */
  body: {
    <S extends z.ZodTypeAny>(schema: S, options?: BodyOptions): Promise<z.infer<S>>
    (): Promise<unknown>
  }
}

type Handler<K extends string, U> = (call: ApiCall<K, U>) => Response | Promise<Response>
/** A method that needs other roles than the route's (e.g. GET for all, PATCH for admins). */
type MethodSpec<K extends string, U> = Handler<K, U> | { roles: Roles; run: Handler<K, User> }

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
type Method = (typeof METHODS)[number]

type UserFor<A> = A extends 'public' ? null : User

export function apiRoute<K extends string = never, A extends Access | undefined = undefined>(
  spec: {
    roles?: A
    /** Id params and their labels: `{ fileId: 'file id' }` → `ids.fileId`, else 400 'Invalid file id'. */
    params?: Record<K, string>
  } & Partial<Record<Method, MethodSpec<K, UserFor<A>>>>,
) {
  const allowed = METHODS.filter((method) => spec[method])

  async function answer({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs) {
    const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method
    const handler = allowed.includes(method) ? spec[method] : undefined
    if (!handler) return methodNotAllowed(allowed)
    try {
      const roles = typeof handler === 'function' ? spec.roles : handler.roles
      const user = roles === 'public' ? null : await requireApiUser(request, roles)
      const ids = {} as Record<K, number>
      for (const [name, label] of Object.entries(spec.params ?? {}) as [K, string][])
        ids[name] = parseId(params[name], label)
      const body = async (schema?: z.ZodTypeAny, options: BodyOptions = {}) => {
        if (!schema) return readJson(request)
        const input = await readJsonBody(request, schema, { message: options.message })
        if (options.partial) assertSomethingToUpdate(input)
        return input
      }
      const call = { request, context, params, ids, user, body } as ApiCall<K, never>
      return await (typeof handler === 'function' ? handler(call) : handler.run(call))
    } catch (error) {
      return domainErrorResponse(error)
    }
  }

  return { loader: answer, action: answer }
}
