/** A valid Bulgarian address as a customer types it. */
export const sofia = {
  fullName: 'Maria Ivanova',
  streetAddress: '12 Vitosha Blvd',
  apartment: 'ap. 4',
  city: 'Sofia',
  state: 'Sofia City',
  postalCode: '1000',
  country: 'BG',
  phone: '0888 123 456',
};
