import { describe, expect, it } from 'vitest';
import { normalizeText } from './normalize';

// Alert lines in the shapes the tools' documentation and default templates produce
// (Zabbix default problem message, PRTG email/SMS, Nagios notify-service-by-email, FortiGate
// syslog key=value), with Turkish operators' own texts. Expected: what should be heard.
const TURKISH: Array<[source: string, input: string, expected: string]> = [
  [
    'Zabbix',
    'Problem started at 03:12:45 on 2024.05.14\nProblem name: High CPU utilization (over 90% for 5m)\nHost: web-01.prod.example.com',
    'Problem started at 03 12 45 on 2024 05 14. Problem name: High CPU utilization (over yüzde 90 for 5 dakika). Host: web 01 nokta prod nokta example nokta com',
  ],
  ['Zabbix', 'Operational data: Current utilization: 97.3 %', 'Operational data: Current utilization: yüzde 97 virgül 3'],
  ['Zabbix', 'db_primary-02: Disk /var kullanımı %95', 'db primary 02: Disk var kullanımı yüzde 95'],
  ['PRTG', 'PRTG Alert: Ping 10.1.2.3 Down (Ping: 0 msec) -- Sensor: Ping DOWN!!!', 'PRTG Alert: Ping 10 nokta 1 nokta 2 nokta 3 Down (Ping: 0 milisaniye) Sensor: Ping down!'],
  ['PRTG', 'Sensör: Bant genişliği 950 Mbps, gecikme 250ms', 'Sensör: Bant genişliği 950 megabit bölü saniye, gecikme 250 milisaniye'],
  [
    'Nagios',
    '** PROBLEM Service Alert: db01/Disk Usage is CRITICAL **\nDISK CRITICAL - free space: / 1024 MB (5% inode=90%):',
    'problem Service Alert: db01 Disk Usage is crıtıcal. dısk crıtıcal free space: 1024 megabayt (yüzde 5 inode yüzde 90):',
  ],
  ['Nagios', 'Host: sw-core-1 State: DOWN Address: 192.168.1.254', 'Host: sw core 1 State: down Address: 192 nokta 168 nokta 1 nokta 254'],
  [
    'FortiGate',
    'date=2024-05-14 time=03:12:45 devname="FGT60E" logid="0100032002" level="alert" srcip=192.168.1.10',
    'date 2024 05 14 time 03 12 45 devname "FGT60E" logid "0 1 0 0 0 3 2 0 0 2" level "alert" srcip 192 nokta 168 nokta 1 nokta 10',
  ],
  ['FortiGate', 'CPU sıcaklığı 78°C 🔥🔥 bkz https://fgt.example.com/ng/system?x=1', 'CPU sıcaklığı 78 santigrat derece bkz fgt nokta example nokta com'],
  ['operator', 'KRİTİK UYARI: 10.0.0.1:8080 yanıt vermiyor??? 3.5 GB', 'kritik uyarı: 10 nokta 0 nokta 0 nokta 1 port 8080 yanıt vermiyor? 3 virgül 5 gigabayt'],
  ['operator', 'Ağ geçidi\u0007 düştü!!!\t\t🚨', 'Ağ geçidi düştü!'],
];

const ENGLISH: Array<[source: string, input: string, expected: string]> = [
  [
    'Zabbix',
    'Problem started at 03:12:45 on 2024.05.14\nProblem name: High CPU utilization (over 90% for 5m)\nHost: web-01.prod.example.com',
    'Problem started at 03 12 45 on 2024 05 14. Problem name: High CPU utilization (over 90 percent for 5 minutes). Host: web 01 dot prod dot example dot com',
  ],
  ['Zabbix', 'Free disk space is less than 10% on volume /data: 3.5 GB left', 'Free disk space is less than 10 percent on volume data: 3.5 gigabytes left'],
  ['PRTG', 'PRTG Alert: Ping 10.1.2.3 Down (Ping: 0 msec) -- Sensor: Ping DOWN!!!', 'PRTG Alert: Ping 10 dot 1 dot 2 dot 3 Down (Ping: 0 milliseconds) Sensor: Ping down!'],
  ['PRTG', 'Response time 1200 ms (limit 500 ms) on https://shop.example.com/checkout', 'Response time 1200 milliseconds (limit 500 milliseconds) on shop dot example dot com'],
  [
    'Nagios',
    '** PROBLEM Service Alert: db01/Disk Usage is CRITICAL **\nDISK CRITICAL - free space: / 1024 MB (5% inode=90%):',
    'problem Service Alert: db01 Disk Usage is critical. disk critical free space: 1024 megabytes (5 percent inode 90 percent):',
  ],
  ['Nagios', 'HTTP CRITICAL: HTTP/1.1 503 Service Unavailable - 0.012 second response time', 'HTTP critical: HTTP 1.1 503 Service Unavailable 0.012 second response time'],
  [
    'FortiGate',
    'date=2024-05-14 devname="FGT60E" logid="0100032002" msg="Admin login failed" srcip=192.168.1.10',
    'date 2024 05 14 devname "FGT60E" logid "0 1 0 0 0 3 2 0 0 2" msg "Admin login failed" srcip 192 dot 168 dot 1 dot 10',
  ],
  ['FortiGate', 'CPU temperature 78°C ⚠️ fan 4200 rpm', 'CPU temperature 78 degrees Celsius fan 4200 revolutions per minute'],
  ['operator', 'KRİTİK: [[h@loU]] <speak>DISK FULL</speak>?!?', 'kritik: [h@loU] <speak>disk full</speak>?'],
];

describe('normalizeText', () => {
  it.each(TURKISH)('tr %s: %s', (_source, input, expected) => {
    expect(normalizeText(input, 'tr')).toBe(expected);
  });

  it.each(ENGLISH)('en %s: %s', (_source, input, expected) => {
    expect(normalizeText(input, 'en')).toBe(expected);
  });

  it('leaves nothing of a text of only emoji, control characters and punctuation', () => {
    expect(normalizeText('🔥🚨 !!! \u0007 ---', 'tr')).toBe('');
  });

  it('keeps acronyms without vowels spelled and numbers that are not addresses intact', () => {
    expect(normalizeText('SNMP trap from 300.1.1.1', 'en')).toBe('SNMP trap from 300.1.1.1');
  });
});
