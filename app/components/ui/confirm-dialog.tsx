/**
 * The one confirmation pattern: a dialog route (or `?dialog=` state) that
 * explains what will happen and posts to its own action. The button that leads to it is a
 * plain link, so the same dialog asks with and without JavaScript — no `window.confirm()`.
 */
import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'

import { StatusButton } from './status-button.tsx'
import { DialogCloseLink, UrlDialog } from './url-dialog.tsx'
import { useIsPending } from './use-is-pending.ts'

export function ConfirmDialog({
  title,
  children,
  closeTo,
  confirmLabel,
  pendingLabel,
  action,
  intent,
  fields,
  tone = 'danger',
  onClose,
  replace = false,
  testId,
}: {
  title: string
  children: ReactNode
  closeTo: string
  confirmLabel: string
  pendingLabel: string
  /** Where the form posts; the dialog route's own action when left out. */
  action?: string
  intent?: string
  fields?: Record<string, string | number>
  tone?: 'danger' | 'primary'
  onClose?: () => void
  replace?: boolean
  testId?: string
}) {
  const pending = useIsPending({ intent, formAction: action })
  return (
    <UrlDialog
      title={title}
      closeTo={closeTo}
      onClose={onClose}
      replace={replace}
      size="sm"
      testId={testId}
      footer={
        <>
          <DialogCloseLink closeTo={closeTo} onClose={onClose} replace={replace} />
          <Form method="post" action={action} preventScrollReset>
            {intent ? <input type="hidden" name="intent" value={intent} /> : null}
            {Object.entries(fields ?? {}).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <StatusButton
              pending={pending}
              pendingLabel={pendingLabel}
              variant={tone === 'danger' ? 'danger' : 'primary'}
            >
              {confirmLabel}
            </StatusButton>
          </Form>
        </>
      }
    >
      <div className="space-y-2 text-sm text-ink-700">{children}</div>
    </UrlDialog>
  )
}
