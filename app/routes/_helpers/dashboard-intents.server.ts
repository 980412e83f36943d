/**
 * One role's forms on /dashboard, told apart by the hidden `intent` field: the handler of each
 * intent, and a 403 with `refusal` for a user of another role. The client's and the pilot's forms use it.
 */
import { json } from '@remix-run/node'
import { isIntentOf } from '#app/lib/http/intents.ts'
import type { User } from '#db/schema.ts'

type IntentHandler = (user: User, formData: FormData) => Promise<Response>

export function dashboardIntents<const Intent extends string>(
  role: User['role'],
  refusal: string,
  handlers: Record<Intent, IntentHandler>,
) {
  const intents = Object.keys(handlers) as Intent[]
  return {
    /** The answer to a posted form; null when its intent is not one of these (another form on the page). */
    answer(user: User, formData: FormData): Promise<Response> | null {
      const intent = formData.get('intent')
      if (!isIntentOf(intents, intent)) return null
      if (user.role !== role) return Promise.resolve(json({ intent, error: refusal }, { status: 403 }))
      return handlers[intent](user, formData)
    },
  }
}
