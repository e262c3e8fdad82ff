import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../database/transformers';

@Entity('accounts')
@Check('accounts_plan_check', `plan IN ('free', 'pro', 'max', 'bench')`)
@Check('accounts_credit_balance_check', 'credit_balance >= 0')
export class Account {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  plan: 'free' | 'pro' | 'max' | 'bench';

  @Column('bigint', { name: 'credit_balance', default: 0, transformer: bigintToNumber })
  creditBalance: number;

  @Column('text', { name: 'webhook_secret' })
  webhookSecret: string;

  /** The secret the last rotation replaced; deliveries are signed with it too until 24 h after the rotation. */
  @Column({ type: 'text', name: 'previous_webhook_secret', nullable: true })
  previousWebhookSecret: string | null;

  @Column({ type: 'timestamptz', name: 'webhook_secret_rotated_at', nullable: true, precision: 3 })
  webhookSecretRotatedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
