/**
 * An admin /api route on one record, `/api/admin/<things>/{id}` (ADR 280): admins only, the
 * id from the route's param (400 when it is not one), the JSON body read with the write's
 * schema (400 with field errors; a `partial` write must name at least one field), the
 * service's DomainErrors as their /api answers, and 405 for any other method — GET too, so
 * Remix does not answer a missing loader with its own 400.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import {
  assertSomethingToUpdate,
  methodNotAllowed,
  parseId,
  readJsonBody,
  withApiErrors,
  type FieldErrors,
} from '#app/domain/http/api.server.ts'
import type { z } from 'zod'

type Answer = Record<string, unknown>

interface RecordWrite<S extends z.ZodTypeAny> {
  /** PUT unless said otherwise. */
  method?: 'PUT' | 'POST'
  schema: S
  /** The form's own error text instead of the first field's (see `readJsonBody`). */
  message?: (fieldErrors: FieldErrors) => string
  /** Some fields of the record: an empty body is 400 'Nothing to update'. */
  partial?: boolean
  /** Runs the service; what it returns is the JSON answer. */
  save: (adminId: number, id: number, input: z.infer<S>) => Answer | Promise<Answer>
}

/**
 * The route's `action` and `loader`. `param` names the id (`hubId` → "Invalid hub id");
 * `remove`, when given, answers DELETE with `{ success: true }`.
 */
export function adminRecordRoute<S extends z.ZodTypeAny>({
  param,
  write,
  remove,
}: {
  param: string
  write: RecordWrite<S>
  remove?: (adminId: number, id: number) => void
}) {
  const writeMethod = write.method ?? 'PUT'
  const methods = remove ? [writeMethod, 'DELETE'] : [writeMethod]
  return {
    async action({ request, params }: ActionFunctionArgs) {
      if (!methods.includes(request.method)) return methodNotAllowed(methods)
      const admin = await requireApiUser(request, 'admin')
      const id = parseId(params[param], param.replace(/Id$/, ' id'))
      if (remove && request.method === 'DELETE') {
        return withApiErrors(() => {
          remove(admin.id, id)
          return json({ success: true })
        })
      }
      const input = await readJsonBody(request, write.schema, { message: write.message })
      if (write.partial) assertSomethingToUpdate(input)
      return withApiErrors(async () => json(await write.save(admin.id, id, input)))
    },
    loader: () => methodNotAllowed(methods),
  }
}
