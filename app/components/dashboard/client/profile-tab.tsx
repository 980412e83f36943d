import { PrivacyControls } from '#app/components/account/privacy-controls.tsx'

import { ProfileForm, type ProfileValues } from '../profile-form.tsx'

/** Profile: the shared profile form with billing, and the data controls. */
export function ProfileTab({ profile }: { profile: ProfileValues }) {
  return (
    <div className="space-y-6">
      <ProfileForm profile={profile} billing />
      <PrivacyControls marketingOptIn={profile.marketingOptIn ?? false} />
    </div>
  )
}
