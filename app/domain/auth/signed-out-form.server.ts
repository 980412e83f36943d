/**
 * The opening of every form a signed-out visitor can post (login, register, forgot and
 * reset password, the landing page's contact form): the honeypot, the shared zod schema,
 * then the per-address limit (ADR 004). It answers with the valid submission, or with why
 * it was refused and the reply for the form — 400 with the field errors, 429 with the limit
 * message — and never echoes a password field. Each caller shapes its own response.
 */
import { parseWithZod } from '@conform-to/zod'
import type { AppLoadContext } from '@remix-run/node'
import { clientIpOf } from '#app/domain/http/context.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { checkHoneypot } from '#app/domain/http/honeypot.server.ts'
import type { z } from 'zod'

import { enforceRateLimit, RATE_LIMIT_MESSAGE, type LimitedAction } from './rate-limit.server.ts'

export async function readSignedOutForm<Schema extends z.ZodTypeAny>(
  formData: FormData,
  context: AppLoadContext | undefined,
  { schema, limit, hideFields }: { schema: Schema; limit: LimitedAction; hideFields?: string[] },
) {
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
