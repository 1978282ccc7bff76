// The electricity tab is the buy feature's bill form for it (the bill kinds' forms share their parts: web/src/features/buy/Bills.tsx).
export { ElectricityBuy as Screen } from '../../Bills';
