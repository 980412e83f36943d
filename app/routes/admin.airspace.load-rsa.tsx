import { type ActionFunctionArgs } from '@remix-run/node'
import { LOAD_RSA_CONFIRM } from '#app/components/dashboard/admin/airspace-tab.tsx'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { loadRsaAirspaceByAdmin } from '#app/domain/admin/airspace-admin.server.ts'
import { AIRSPACE_ATTRIBUTION } from '#app/domain/airspace/zone-kinds.ts'
import { plural } from '#app/lib/format/numbers.ts'
import { adminDialogLoader, confirmedAdminAction } from '#app/routes/_helpers/admin-dialogs.server.ts'

const BACK = '/admin?tab=airspace'

export const loader = adminDialogLoader

export async function action({ request }: ActionFunctionArgs) {
  return confirmedAdminAction(request, {
    back: BACK,
    run: (admin) => loadRsaAirspaceByAdmin(admin.id),
    done: ({ inserted }) => ({
      title: 'RSA Airspace Data Loaded',
      description: `${plural(inserted, 'zone')} loaded.`,
    }),
    failed: {
      log: 'loading RSA airspace failed',
      toast: { title: 'Load Failed', description: 'Failed to load RSA airspace data' },
    },
  })
}

/** The confirmation: the tab's button links here, with and without JavaScript. */
export default function LoadRsaDialog() {
  return (
    <ConfirmDialog
      title="Load RSA airspace data"
      closeTo={BACK}
      confirmLabel="Load RSA data"
      pendingLabel="Loading…"
      tone="primary"
    >
      <p>{LOAD_RSA_CONFIRM}</p>
      <p className="text-xs text-ink-500">{AIRSPACE_ATTRIBUTION}</p>
    </ConfirmDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
