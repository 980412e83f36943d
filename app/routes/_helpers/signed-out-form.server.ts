/**
 * The opening of every form a signed-out visitor can post (login, register, forgot and
 * reset password, the landing page's contact form): the honeypot, the shared zod schema,
 * then the per-address limit. It answers with the valid submission, or with why
 * it was refused and the reply for the form — 400 with the field errors, 429 with the limit
 * message — and never echoes a password field. Each caller shapes its own response.
 * Pages pass the request; the contact form passes the body it has already read for its intent.
 */
import { parseWithZod } from '@conform-to/zod'
import { json, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node'
import { requireAnonymous } from '#app/domain/auth/guards.server.ts'
import {
  enforceRateLimit,
  RATE_LIMIT_MESSAGE,
  type LimitedAction,
} from '#app/domain/auth/rate-limit.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { checkHoneypot } from '#app/lib/http/honeypot.server.ts'
import type { z } from 'zod'

/** The loader of the pages only for signed-out visitors (sign in, register): users go to their dashboard. */
export async function signedOutOnlyLoader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request)
  return json({})
}

export async function readSignedOutForm<Schema extends z.ZodTypeAny>(
  body: Request | FormData,
  context: AppLoadContext | undefined,
  { schema, limit, hideFields }: { schema: Schema; limit: LimitedAction; hideFields?: string[] },
) {
  const formData = body instanceof Request ? await readFormBody(body) : body
  checkHoneypot(formData)
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') {
    return {
      submission: null,
      refused: { result: submission.reply({ hideFields }), status: 400 },
    } as const
  }
  try {
    await enforceRateLimit(limit, clientIpOf(context))
  } catch (error) {
    if (!isDomainError(error, 429)) throw error
    return {
      submission,
      refused: {
        result: submission.reply({ formErrors: [RATE_LIMIT_MESSAGE], hideFields }),
        status: 429,
      },
    } as const
  }
  return { submission, refused: null } as const
}
