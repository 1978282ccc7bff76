-- Marketplace products and orders, subscription plans and orders (issue 9). Money is kobo.
CREATE TABLE marketplace_products (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  description text,
  price bigint NOT NULL CHECK (price > 0),
  stock integer NOT NULL CHECK (stock >= 0),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX marketplace_products_active_idx ON marketplace_products (active, created_at DESC);

CREATE TABLE marketplace_orders (
  id uuid PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id),
  product_id uuid NOT NULL REFERENCES marketplace_products(id),
  product_name text NOT NULL,
  unit_price bigint NOT NULL,
  quantity integer NOT NULL CHECK (quantity > 0),
  amount bigint NOT NULL CHECK (amount > 0),
  delivery jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'fulfilled', 'cancelled')),
  note text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX marketplace_orders_user_idx ON marketplace_orders (user_id, created_at DESC);
CREATE INDEX marketplace_orders_status_idx ON marketplace_orders (status, created_at DESC);

CREATE TABLE subscription_plans (
  id uuid PRIMARY KEY,
  service text NOT NULL,
  category text NOT NULL CHECK (category IN ('streaming', 'social')),
  name text NOT NULL,
  price bigint NOT NULL CHECK (price > 0),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE subscription_orders (
  id uuid PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id),
  plan_id uuid NOT NULL REFERENCES subscription_plans(id),
  service text NOT NULL,
  category text NOT NULL,
  plan_name text NOT NULL,
  account text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL CHECK (status IN ('pending', 'processing', 'fulfilled', 'failed', 'cancelled')),
  note text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX subscription_orders_user_idx ON subscription_orders (user_id, created_at DESC);
CREATE INDEX subscription_orders_status_idx ON subscription_orders (status, created_at DESC);
