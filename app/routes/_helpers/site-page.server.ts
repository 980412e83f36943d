/**
 * The site page's two forms, told apart by `intent`: rename, and the repeat schedule
 * ("Every month", "Every 3 months", or the one-click "Don't repeat"). They call the service the
 * `PUT /api/client/sites/{id}` route calls and answer with a redirect and a toast.
 */
import { parseWithZod } from '@conform-to/zod'
import { json } from '@remix-run/node'
import type { SiteViewer } from '#app/domain/sites/site-access.server.ts'
import {
  SITE_INTENTS,
  SITE_MESSAGES,
  SiteRenameFormSchema,
  SiteScheduleFormSchema,
} from '#app/domain/sites/site-schedule.ts'
import { updateSite } from '#app/domain/sites/sites.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

const SiteIntents = intentSchema(SITE_INTENTS.rename, SITE_INTENTS.schedule)

export async function handleSitePageAction(viewer: SiteViewer, siteId: number, formData: FormData) {
  const intent = readIntent(formData, SiteIntents)
  const back = `/sites/${siteId}`
  if (intent === SITE_INTENTS.rename) {
    const submission = parseWithZod(formData, { schema: SiteRenameFormSchema })
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 })
    updateSite(viewer, siteId, { name: submission.value.name })
    return redirectWithToast(back, { title: SITE_MESSAGES.renamed, type: 'success' })
  }
  if (intent === SITE_INTENTS.schedule) {
    const submission = parseWithZod(formData, { schema: SiteScheduleFormSchema })
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 })
    const site = updateSite(viewer, siteId, { repeatEvery: submission.value.repeatEvery })
    return redirectWithToast(back, {
      title: site.repeatEvery ? SITE_MESSAGES.scheduled : SITE_MESSAGES.cancelled,
      type: 'success',
    })
  }
  return json({ intent, error: 'Unknown action' }, { status: 400 })
}
