import type { ReactElement } from 'react';
import type { ContactData } from '../queries/site.ts';

/** The institute's postal address, a line each, with `name` as the first line when given (footer, contact page). */
export function PostalAddress({ contact, name, className }: { contact: ContactData; name?: string; className?: string }): ReactElement {
  return (
    <address className={className}>
      {name === undefined ? null : (
        <>
          {name}
          <br />
        </>
      )}
      {contact.address}
      <br />
      {contact.postalCode} {contact.city}
      <br />
      {contact.country}
    </address>
  );
}

/** The link that calls `phone`: digits and a leading + only, as tel: URLs want them. */
export function PhoneLink({ phone }: { phone: string }): ReactElement {
  return <a href={`tel:${phone.replace(/[^+\d]/g, '')}`}>{phone}</a>;
}
