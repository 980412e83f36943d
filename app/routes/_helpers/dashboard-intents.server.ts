/**
 * One role's forms on /dashboard, told apart by the hidden `intent` field: the handler of each
 * intent, and a 403 with `refusal` for a user of another role. The client's and the pilot's forms use it.
 */
import { json } from '@remix-run/node'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import type { User } from '#db/schema.ts'

type IntentHandler = (user: User, formData: FormData) => Promise<Response>

export function dashboardIntents<const Intent extends string>(
  role: User['role'],
  refusal: string,
  handlers: Record<Intent, IntentHandler>,
) {
  const [first, ...rest] = Object.keys(handlers) as Intent[]
  const Intents = intentSchema(first!, ...rest)
  return {
    /** The answer to a posted form; null when its intent is not one of these (another form on the page). */
    answer(user: User, formData: FormData): Promise<Response> | null {
      const intent = readIntent(formData, Intents)
      if (intent === null) return null
      if (user.role !== role) return Promise.resolve(json({ intent, error: refusal }, { status: 403 }))
      return handlers[intent](user, formData)
    },
  }
}
