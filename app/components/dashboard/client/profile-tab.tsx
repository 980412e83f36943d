import { ProfileForm, type ProfileValues } from '../profile-form.tsx'

/** Profile (spec "Client dashboard"): the shared profile form. */
export function ProfileTab({ profile }: { profile: ProfileValues }) {
  return <ProfileForm profile={profile} />
}
