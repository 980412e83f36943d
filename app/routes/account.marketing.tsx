/** `POST /account/marketing` — the Profile tab's marketing e-mail consent. */
import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { setMarketingConsent } from '#app/domain/privacy/marketing.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const form = await readFormBody(request)
  const optIn = form.get('marketingOptIn') === 'on'
  setMarketingConsent(user.id, optIn)
  return redirectWithToast('/dashboard?tab=profile', {
    title: 'Preference saved',
    description: optIn
      ? 'We may send you news and offers by e-mail.'
      : 'We will not send you marketing e-mail.',
  })
}

export function loader() {
  return redirect('/dashboard?tab=profile')
}
