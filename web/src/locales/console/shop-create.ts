/** The shop's forms: a new product, a new subscription plan (ShopCreate.tsx). */
export const shopCreate = {
  newProduct: 'New product',
  name: 'Name',
  priceNaira: 'Price (naira)',
  stock: 'Stock',
  description: 'Description',
  addProduct: 'Add product',
  newPlan: 'New plan',
  serviceId: 'Service id',
  serviceIdHint: 'e.g. netflix, spotify',
  category: 'Category',
  streaming: 'Streaming',
  social: 'Social',
  planName: 'Plan name',
  addPlan: 'Add plan',
};
