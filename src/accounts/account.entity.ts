import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../database/transformers';

@Entity('accounts')
export class Account {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  plan: 'free' | 'pro' | 'max' | 'bench';

  @Column('bigint', { name: 'credit_balance', transformer: bigintToNumber })
  creditBalance: number;

  @Column('text', { name: 'webhook_secret' })
  webhookSecret: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
